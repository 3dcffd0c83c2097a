"""Invalid inputs of the progress hook (reference/core/progress.py)."""

from invalid_inputs import Case
from shuffle_spec.reference.core import progress

CASES = [
    Case(progress.progress_callback, (42,), fragment="callback"),
    Case(progress.progress_callback, ("print",), fragment="callback"),
]

EXEMPT = {
    # No parameter to refuse: report takes a stage name and counts from the package's own loops and hands them to
    # the listener as given; listening and silenced take none.
    "shuffle_spec.reference.core.progress.report",
    "shuffle_spec.reference.core.progress.listening",
    "shuffle_spec.reference.core.progress.silenced",
}
