"""A stand-in for CuPy on a CPU-only machine (for auditing Su, Cheng, Wang's code, which imports CuPy at
module level): the CuPy calls that code makes (asarray, pad, fft.fft, fft.ifft, maximum, sum, linspace)
have NumPy twins of the same name and meaning, so this module re-exports NumPy. It is put on sys.path
only by `shuffle_spec.interface.audit.adapters.python_codes.su_fft_krr`."""

from numpy import *  # noqa: F403
from numpy import asarray as asnumpy  # noqa: F401
from numpy import fft  # noqa: F401
