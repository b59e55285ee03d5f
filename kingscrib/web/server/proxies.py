"""Which reverse proxies the server believes (``--trust-proxy``), and when that is unsafe.

A trusted proxy's ``X-Forwarded-For`` header names the client, and every per-address
limit then applies to that name. So a server that trusts an address a client can
connect from lets that client rotate made-up addresses past every limit. Refused:
trusting every address (``*``, ``0.0.0.0/0``, ``::/0``) unless the operator says that
nothing but the proxy can reach the server (``--trust-any-proxy``). Warned about, when
the server listens beyond this machine: trusting a whole network (any machine in it
could claim any address), and trusting only this machine's proxy (clients could then
go round the proxy, its TLS and its limits). See docs/deploy.md.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class UnsafeProxies(ValueError):
    """A ``--trust-proxy`` setting that is wrong or unsafe; the message says why."""


@dataclass(frozen=True)
class TrustedProxies:
    networks: tuple[Network, ...]

    def __contains__(self, address: object) -> bool:
        try:
            ip = ipaddress.ip_address(str(address))
        except ValueError:
            return False
        return any(ip in net for net in self.networks)

    def uvicorn_setting(self) -> str:
        """The list as uvicorn's ``forwarded_allow_ips`` reads it."""
        return ",".join(str(n.network_address) if n.num_addresses == 1 else str(n)
                        for n in self.networks)

    def warnings(self, host: str) -> list[str]:
        """What is risky about trusting these proxies while listening on ``host``."""
        if _loopback(host):
            return []
        found = []
        wide = [str(n) for n in self.networks if n.num_addresses > 1 and not n.is_loopback]
        if wide:
            found.append(f"--trust-proxy {', '.join(wide)}: any machine there that reaches "
                         f"{host} directly can claim any client address; trust the proxy's "
                         "own address, or let only the proxy reach the server")
        if all(n.is_loopback for n in self.networks):
            found.append(f"the trusted proxy runs on this machine but the server listens on "
                         f"{host}: clients can go round the proxy (its TLS and its limits); "
                         "listen on 127.0.0.1")
        return found


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def parse_proxies(text: str, any_allowed: bool = False) -> TrustedProxies:
    """``text``: comma-separated addresses or networks (``127.0.0.1``, ``10.0.0.5``,
    ``fd00::/64``). UnsafeProxies when one is not an address or trusts everyone (unless
    ``any_allowed``)."""
    networks: list[Network] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        if item == "*":
            item = "0.0.0.0/0"
        try:
            net = ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise UnsafeProxies(f"--trust-proxy: {item!r} is not an IP address or network "
                                "(e.g. 127.0.0.1 or 10.0.0.0/24)") from None
        if net.prefixlen == 0:
            if not any_allowed:
                raise UnsafeProxies(
                    f"--trust-proxy {item} trusts every address: any client could claim any "
                    "address and go past every per-address limit. Name the proxy's address; "
                    "or, if nothing but the proxy can reach this server, add "
                    "--trust-any-proxy")
            networks += [ipaddress.ip_network("0.0.0.0/0"), ipaddress.ip_network("::/0")]
            continue
        networks.append(net)
    if not networks:
        raise UnsafeProxies("--trust-proxy: no address given")
    return TrustedProxies(tuple(dict.fromkeys(networks)))
