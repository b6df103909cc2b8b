"""Play and analyse in the browser: ``python -m hexcore serve``.

``hexcore.serve.app()`` returns the ASGI application (Starlette) for
embedding; it needs the ``serve`` extra (``pip install "hexcore[serve]"``).
The page is plain HTML, SVG and JavaScript modules shipped in
``hexcore/serve/static`` (no build step). The engine work behind each request
is in :mod:`hexcore.serve.game`.
"""
from __future__ import annotations

from .app import app

__all__ = ["app"]
