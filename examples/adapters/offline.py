"""No network but loopback, for the whole process: an audit hook (PEP 578).

Imported first by the test modules of engines that must run offline
(Mem0, LlamaIndex): the hook sees every ``socket.connect``,
``socket.sendto``, ``socket.getaddrinfo`` and ``socket.gethostbyname`` of
the process, the driver processes included (they import the test module
again), and refuses any whose address is not loopback or a Unix socket,
before a packet leaves or a name is resolved. Each refusal is also
appended to the file named by ``TINYMEMORY_OFFLINE_LOG`` when set, so a
test can assert that none happened (test_offline.py). An audit hook
cannot be removed: nothing later in the process can undo it.
"""

import ipaddress
import os
import socket
import sys

LOG_ENV = "TINYMEMORY_OFFLINE_LOG"
_LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def _is_loopback(host):
    if host is None:
        return True  # getaddrinfo(None, port): the local host's addresses
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    host = str(host).strip("[]").split("%")[0]
    if host.lower() in _LOOPBACK_NAMES or host == "":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _address_allowed(address):
    # A Unix socket's address is a path (str or bytes); an IP one a tuple.
    if not isinstance(address, tuple):
        return True
    return _is_loopback(address[0])


class NetworkRefused(OSError):
    """A network access other than loopback, refused by the hook."""


def _refuse(event, what):
    message = f"tinymemory offline guard: {event} to {what!r} refused (only loopback is allowed)"
    path = os.environ.get(LOG_ENV)
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{os.getpid()} {message}\n")
    raise NetworkRefused(message)


def _hook(event, args):
    if event in ("socket.connect", "socket.sendto", "socket.sendmsg"):
        sock, address = args[0], args[-1]
        if getattr(sock, "family", None) == socket.AF_UNIX:
            return
        if not _address_allowed(address):
            _refuse(event, address)
    elif event in ("socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyname_ex"):
        if not _is_loopback(args[0]):
            _refuse(event, args[0])


_installed = False


def install():
    """Adds the hook to this process, once."""
    global _installed
    if not _installed:
        sys.addaudithook(_hook)
        _installed = True


install()
