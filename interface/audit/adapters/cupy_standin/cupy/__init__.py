"""A stand-in for CuPy on a CPU-only machine (for auditing Su, Cheng, Wang's code, which imports CuPy at
module level). It is put on sys.path only by `shuffle_spec.interface.audit.adapters.python_codes.su_fft_krr`
and by benchmarks/anchors.py, never imported by the package itself.

What it does, exactly:

- every name the audited code uses other than the FFT (asarray, pad, maximum, sum, linspace, `.item()` on
  the arrays) is NumPy's, re-exported unchanged (`from numpy import *`): NumPy and CuPy give them the same
  meaning, and the arrays are plain NumPy arrays;
- `cupy.fft.fft` / `cupy.fft.ifft` are `scipy.fft.fft` / `scipy.fft.ifft` (module `_fft.py` beside this
  file, bound as `cupy.fft`): the same unnormalised discrete Fourier transform and its inverse (scaled by 1/length) as
  `numpy.fft` and CuPy, on the same float64/complex128 data, computed by the same pocketfft algorithm family;
  the results equal NumPy's up to float64 round-off (not bit for bit). SciPy's transform is used because it
  does not first copy a real input into a complex array and accepts `workers` (threads; 1 unless
  SHUFFLE_SPEC_CUPY_STANDIN_WORKERS says otherwise): on the 2-core audit machine the forward transform of
  their real grid (2^22 points) took 0.21 s against NumPy's 0.67 s, and one evaluation of their delta(eps)
  about 20 % less time (docs/audits/su.md, "Why a call takes minutes").

Nothing of the audited algorithm changes: the same grid, the same padding length, the same n-th power,
clipping and renormalisation, the same bisection.
"""

from numpy import *  # noqa: F403
from numpy import asarray as asnumpy  # noqa: F401

# Not `from . import fft`: the star import above already bound numpy.fft to that name, which that would return.
from . import _fft as fft  # type: ignore[no-redef]  # noqa: F401
