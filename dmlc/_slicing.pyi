# The signature of the Cython module's public function, for type checkers (dmlc ships
# py.typed); tests/test_api_signatures.py checks it against the compiled function.
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike

def slice(x: ArrayLike, offsets: Union[int, Sequence[int]], sizes: Union[int, Sequence[int]],
          strides: Union[int, Sequence[int]] = 1, *, out: Optional[np.ndarray] = None) -> np.ndarray: ...
