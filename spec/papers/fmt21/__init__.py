"""FMT21: Feldman, McMillan, Talwar, "Hiding among the clones: a simple and nearly optimal analysis of
privacy amplification by shuffling" (FOCS 2021, arXiv:2012.12803).

Versions: the extended abstract (the statements' version "seed 003": equation (1), Theorem 2.1, Proposition 2.2,
Theorem 2.3, Figure 1) and the full version, arXiv 2012.12803 (Theorems 3.1 and 3.8, Appendix E), whose
numbering the statements cite where it differs. The paper's statements are split by concept: closed forms and
frequency estimation (`closed_forms`), the numerical clone bound (`clones`).
"""

from .clones import STATEMENTS as _CLONES
from .closed_forms import STATEMENTS as _CLOSED_FORMS
from ...statement import Statement

STATEMENTS: tuple[Statement, ...] = _CLOSED_FORMS + _CLONES
