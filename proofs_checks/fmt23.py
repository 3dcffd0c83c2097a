"""Proof checks for fmt23 (filled in by its issue)."""

from __future__ import annotations
