"""Play backgammon against the computer in a browser, and the engine
behind a JSON API: ``backgammon serve`` (needs ``pip install 'backgammon[web]'``).

``create_app()`` is the ASGI application (FastAPI); ``main(host, port,
open_browser)`` serves it with uvicorn.
"""
from __future__ import annotations

import sys
import threading
import webbrowser

__all__ = ["create_app", "main"]


def create_app(**options):
    """The ASGI application (see ``backgammon.web.routes.create_app``)."""
    from .routes import create_app as make
    return make(**options)


def main(host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False) -> int:
    """Serve the page and the API on ``host``:``port`` until interrupted.

    Listens on the loopback interface unless told otherwise, and warns when
    it is told: anyone who can reach the port can then play and use the
    engine.  On loopback only requests for a loopback host name are served
    (a guard against DNS rebinding).  ``open_browser`` opens the page.
    """
    try:
        import uvicorn
        from .routes import create_app as make, is_loopback
    except ImportError as e:
        print(f"backgammon serve needs the web extra: pip install '.[web]' in a clone of the project, "
              f"or pip install 'backgammon[web]' where it is published ({e})", file=sys.stderr)
        return 2
    if is_loopback(host):
        allowed = ["127.0.0.1", "localhost", "::1", "[::1]"]
    else:
        allowed = None
        print(f"warning: serving on {host}, not only on this machine's loopback interface: anyone who can "
              f"reach port {port} can use the engine and play; there is no authentication", file=sys.stderr)
    app = make(allowed_hosts=allowed)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{port}/"
    print(f"backgammon: play at {url}  (API documentation: {url}docs); Ctrl-C stops", file=sys.stderr)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(app, host=host, port=port, log_level="warning")
    return 0
