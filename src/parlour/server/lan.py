"""Playing with friends on the same network: the addresses a phone on the Wi-Fi can reach this
server by, and QR codes of invite links (the table page shows them; GET /api/invite/{code}).

A server listening on 127.0.0.1 (the default) is reachable from this machine only: its invite
links are of no use to a friend's phone, and the table page says so and how to change it
(`parlour serve --host 0.0.0.0`, `make serve HOST=0.0.0.0`).
"""

from __future__ import annotations

import ipaddress
import socket
import struct

__all__ = ["HOW", "invite_links", "lan_addresses", "listens_beyond_loopback", "qr_svg"]

HOW = (
    "This server listens on this computer only, so a friend's phone cannot open its links. "
    "To play with friends on the same Wi-Fi, start it with `make serve HOST=0.0.0.0` "
    "(or `parlour serve --host 0.0.0.0`) and send them the link it shows."
)
_SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, in a stable order (no traffic sent)."""
    found: list[str] = []
    try:
        import fcntl

        for _, name in socket.if_nameindex():
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                try:
                    packed = fcntl.ioctl(
                        s.fileno(), _SIOCGIFADDR, struct.pack("256s", name[:15].encode())
                    )
                except OSError:
                    continue
                found.append(socket.inet_ntoa(packed[20:24]))
    except (ImportError, OSError):
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    out: list[str] = []
    for a in found:
        if _usable(a) and a not in out:
            out.append(a)
    return out


def listens_beyond_loopback(host: str) -> bool:
    """Whether a server bound to `host` can be reached from other machines."""
    if host in ("", "0.0.0.0", "::", "*"):
        return True
    if host == "localhost":
        return False
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:
        return True  # a host name: whatever it resolves to, it was chosen to be reached


def invite_links(host: str, port: int, path: str) -> list[str]:
    """The URLs of `path` that another machine on the network can open (none on loopback)."""
    if not listens_beyond_loopback(host):
        return []
    hosts = lan_addresses() if host in ("", "0.0.0.0", "::", "*") else [host]
    return [f"http://{h}:{port}{path}" for h in hosts]


def qr_svg(text: str) -> str:
    """A QR code of `text` as a small SVG document (dark modules on white, a quiet zone)."""
    import io

    import segno

    buf = io.BytesIO()
    segno.make(text, error="m").save(
        buf, kind="svg", scale=4, dark="#1d1d1f", light="#ffffff", border=2, xmldecl=False
    )
    return buf.getvalue().decode("utf-8")
