"""Proof checks for efmrstt20 (filled in by its issue)."""

from __future__ import annotations
