"""``python -m hexcore serve``: play and analyse in the browser."""
from __future__ import annotations

import argparse
import sys
from typing import Any

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    """Add the ``serve`` subcommand to ``python -m hexcore``."""
    p = sub.add_parser("serve", help="play and analyse in the browser (a local web server)")
    p.add_argument("--port", type=int, default=8765, help="the port (default 8765)")
    p.add_argument("--host", default="127.0.0.1",
                   help="the interface to listen on (default 127.0.0.1; another one makes the server reachable "
                        "from other machines)")
    p.add_argument("--open", action="store_true", help="open the page in the web browser")
    p.add_argument("--az", action="append", default=[], metavar="PATH",
                   help="a trained agent (checkpoint or run folder) the page may seat as az:PATH (repeatable)")


def run(args: argparse.Namespace) -> int:
    from ._common import CommandError

    if not 0 <= args.port <= 65535:
        raise CommandError(f"--port must be between 0 and 65535, got {args.port}")
    try:
        import uvicorn

        from ..serve import app
    except ImportError as e:
        raise ImportError(f"the serve command needs Starlette and uvicorn: pip install 'hexcore[serve]' ({e})") from None
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: listening on {args.host}: anyone who can reach this machine can use the server",
              file=sys.stderr)
    url = f"http://{'127.0.0.1' if args.host in ('0.0.0.0', '::') else args.host}:{args.port}/"
    print(f"hexcore serve: {url} (Ctrl-C stops)")
    if args.open:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(app(az_paths=args.az), host=args.host, port=args.port, log_level="warning")
    return 0
