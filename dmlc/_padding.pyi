# The signature of the Cython module's public function, for type checkers (dmlc ships
# py.typed); tests/test_api_signatures.py checks it against the compiled function.
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike

from dmlc._enums import PaddingMode

def pad(x: ArrayLike, start_padding: Union[int, Sequence[int]], end_padding: Union[int, Sequence[int]], *,
        mode: Union[str, PaddingMode] = "constant", value: Union[int, float, np.generic] = 0,
        out: Optional[np.ndarray] = None) -> np.ndarray: ...
