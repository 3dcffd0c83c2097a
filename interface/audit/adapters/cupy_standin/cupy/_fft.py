"""`cupy.fft` of the CuPy stand-in (bound to that name by `__init__`): `scipy.fft.fft` and
`scipy.fft.ifft` (the unnormalised DFT and its inverse, the same transforms as `numpy.fft.fft` / `numpy.fft.ifft` and CuPy's), with
SHUFFLE_SPEC_CUPY_STANDIN_WORKERS threads (default 1: the machines this runs on are shared)."""

import os

import scipy.fft as _scipy_fft

WORKERS = int(os.environ.get("SHUFFLE_SPEC_CUPY_STANDIN_WORKERS", "1"))


def fft(a, n=None, axis=-1, norm=None):  # noqa: ANN001, ANN201 - CuPy's signature
    """The discrete Fourier transform, as `cupy.fft.fft` / `numpy.fft.fft`."""
    return _scipy_fft.fft(a, n=n, axis=axis, norm=norm, workers=WORKERS)


def ifft(a, n=None, axis=-1, norm=None):  # noqa: ANN001, ANN201 - CuPy's signature
    """The inverse discrete Fourier transform (scaled by 1/length), as `cupy.fft.ifft` / `numpy.fft.ifft`."""
    return _scipy_fft.ifft(a, n=n, axis=axis, norm=norm, workers=WORKERS)
