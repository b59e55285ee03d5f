"""Every page of the site is one layout (kingscrib/web/templates/layout.html): one head,
the same site links in the same order in every header, the page's own link marked with
aria-current, its scripts and style sheets served, and values rendered escaped."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from web_support import in_process_client

from kingscrib.web import pages

# Each page's address, and its own site link with the aria-current it carries (a page
# under a site link, like one tournament under Tournaments, marks that link "true").
OWN_LINK: dict[str, tuple[str, str] | None] = {
    "/": ("/", "page"),
    "/learn": ("/learn", "page"),
    "/rules/kings": ("/learn", "true"),
    "/rules/cribbage": ("/learn", "true"),
    "/puzzles": ("/puzzles", "page"),
    "/puzzles/cribbage": ("/puzzles", "page"),
    "/tournaments": ("/tournaments", "page"),
    "/tournaments/1": ("/tournaments", "true"),
    "/leaderboard": ("/leaderboard", "page"),
    "/players/nobody": ("/leaderboard", "true"),
    "/your-turn": None,
    "/moderate": None,
}
SITE_LINKS = [("/", "Play"), ("/learn", "Learn"), ("/puzzles", "Puzzles"),
              ("/tournaments", "Tournaments"), ("/leaderboard", "Leaderboard")]


class Outline(HTMLParser):
    """What the layout is made of: the tags counted, the header's site links, the head's
    scripts and style sheets, and every id."""

    def __init__(self) -> None:
        super().__init__()
        self.counts: dict[str, int] = {}
        self.links: list[dict[str, str | None]] = []
        self.sources: list[str] = []
        self.ids: list[str] = []
        self._in_nav = False
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.counts[tag] = self.counts.get(tag, 0) + 1
        if found.get("id"):
            self.ids.append(str(found["id"]))
        if tag == "nav" and found.get("class") == "site-links":
            self._in_nav = True
        elif tag == "a" and self._in_nav:
            self.links.append(found)
            self._text = []
        elif tag == "script" and found.get("src"):
            self.sources.append(str(found["src"]))
        elif tag == "link" and found.get("rel") == "stylesheet":
            self.sources.append(str(found["href"]))

    def handle_data(self, data: str) -> None:
        self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "nav":
            self._in_nav = False
        elif tag == "a" and self._in_nav:
            self.links[-1]["text"] = "".join(self._text).strip()


def outline(html: str) -> Outline:
    parsed = Outline()
    parsed.feed(html)
    return parsed


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    database = tmp_path_factory.mktemp("pages") / "web.sqlite3"
    # Many requests in a row from one connection: its rate limit lifted.
    with in_process_client(f"sqlite:///{database}", rate_per_second=1e4, rate_burst=1e4) as c:
        yield c


@pytest.mark.parametrize("path", list(OWN_LINK))
def test_every_page_is_the_one_layout_with_its_own_link_marked(client, path: str) -> None:
    reply = client.get(path)
    assert reply.status_code == 200, path
    assert reply.headers["content-type"].startswith("text/html")
    assert reply.headers["cache-control"] == "no-cache"
    page = outline(reply.text)
    for tag in ("html", "head", "body", "header", "title", "main"):
        assert page.counts.get(tag) == 1, (path, tag)
    assert page.counts["meta"] == 2  # the charset and the viewport, once each
    assert page.sources.count("/static/style.css") == 1
    assert page.sources.count("/static/js/common/layout.js") == 1
    assert len(page.sources) == len(set(page.sources))  # nothing loaded twice
    assert page.counts["nav"] >= 1 and page.ids.count("theme") == 1
    assert len(page.ids) == len(set(page.ids)), path  # ids stay unique
    assert [(a["href"], a["text"]) for a in page.links] == SITE_LINKS
    assert page.links[0]["class"] == "lobby-link"
    marked = [(a["href"], a["aria-current"]) for a in page.links if "aria-current" in a]
    own = OWN_LINK[path]
    assert marked == ([own] if own else []), path


def test_every_script_and_style_sheet_a_page_names_is_served(client) -> None:
    sources = {source for path in OWN_LINK for source in outline(client.get(path).text).sources}
    for source in sorted(sources):
        assert client.get(source).status_code == 200, source


def test_every_page_template_is_served_and_extends_the_layout() -> None:
    folder = pages.TEMPLATES / "pages"
    templates = {f"pages/{p.name}" for p in folder.glob("*.html")}
    assert templates == {page.template for page in pages.PAGES.values()}
    for name in templates:
        assert (pages.TEMPLATES / name).read_text().startswith('{% extends "layout.html" %}')


def test_values_rendered_into_a_page_are_escaped() -> None:
    template = pages.templates.env.from_string('<p title="{{ v }}">{{ v }}</p>')
    assert template.render(v='<script>"x"</script>') == (
        '<p title="&lt;script&gt;&#34;x&#34;&lt;/script&gt;">&lt;script&gt;&#34;x&#34;&lt;/script&gt;</p>')


def test_the_layout_is_the_only_head() -> None:
    for template in (pages.TEMPLATES / "pages").glob("*.html"):
        text = template.read_text()
        assert "<head" not in text and "<header" not in text and "<nav class=\"site-links\"" \
            not in text, template.name
    assert (pages.TEMPLATES / "layout.html").read_text().count("<head>") == 1
