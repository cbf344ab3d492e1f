# The signature of the Cython module's public functions, for type checkers (dmlc ships
# py.typed); tests/test_api_signatures.py checks it against the compiled function.
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike

def roi_pool(x: ArrayLike, rois: ArrayLike, pooled_size: Union[int, Sequence[int]], spatial_scale: float = 1.0, *,
             out: Optional[np.ndarray] = None) -> np.ndarray: ...
