"""The one error the web layer raises: a refused request with its HTTP status."""

from __future__ import annotations


class WebError(Exception):
    """A request the server refuses; ``status`` is the HTTP status, the message says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message

    def __reduce__(self) -> tuple[type[WebError], tuple[int, str]]:
        # Raised in a worker process (kingscrib.web.play.work), it is pickled back whole.
        return (WebError, (self.status, self.message))
