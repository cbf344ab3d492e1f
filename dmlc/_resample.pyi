# The signatures of the Cython module's public functions, for type checkers (dmlc ships
# py.typed); tests/test_api_signatures.py checks them against the compiled functions.
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike

from dmlc._enums import InterpolationMode

def resample(x: ArrayLike, *, scales: Optional[Sequence[float]] = None, size: Optional[Sequence[int]] = None,
             mode: Union[str, InterpolationMode] = "nearest", coordinate_transformation: str = "half_pixel",
             nearest_rounding: str = "round_prefer_floor", out: Optional[np.ndarray] = None) -> np.ndarray: ...
def upsample_2d(x: ArrayLike, scale: Union[int, Sequence[int]], *, mode: Union[str, InterpolationMode] = "nearest",
                out: Optional[np.ndarray] = None) -> np.ndarray: ...
def _resample2(x: ArrayLike, mode: int, rounding: int, scales: Sequence[float], input_offsets: Sequence[float],
              output_offsets: Sequence[float], shape: tuple, out: Optional[np.ndarray]) -> np.ndarray: ...
