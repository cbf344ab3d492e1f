"""The worked examples of DirectML's pages (dmlc/_examples) as golden tables."""
import numpy as np
import pytest

from dmlc._examples import all_examples

EXAMPLES = all_examples()


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_documented_output(example):
    got = example.run({k: v.copy() for k, v in example.inputs.items()})
    assert set(got) == set(example.expected)
    for key, want in example.expected.items():
        assert got[key].dtype == want.dtype
        np.testing.assert_array_equal(got[key], want)


def test_every_family_has_examples():
    pages = {e.page for e in EXAMPLES}
    assert {"DML_SPACE_TO_DEPTH1_OPERATOR_DESC", "DML_DEPTH_TO_SPACE1_OPERATOR_DESC", "DML_PADDING_OPERATOR_DESC",
            "DML_SPLIT_OPERATOR_DESC", "DML_MAX_POOLING2_OPERATOR_DESC"} <= pages
