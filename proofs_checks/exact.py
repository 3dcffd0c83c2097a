"""Proof checks for exact (filled in by its issue)."""

from __future__ import annotations
