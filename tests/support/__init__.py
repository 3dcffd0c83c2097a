"""Shared helpers of the tests (no tests here): strategies, reference sums, statements of our own, the
in-process command driver, high-precision clone sums."""
