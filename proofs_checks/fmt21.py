"""Proof checks for fmt21 (filled in by its issue)."""

from __future__ import annotations
