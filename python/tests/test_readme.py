"""The README's Python examples run as written."""

import pathlib
import re

import pytest

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_readme_has_the_examples():
    assert len(blocks()) >= 2


@pytest.mark.parametrize("index", range(2))
def test_readme_example_runs(index):
    code = blocks()[index]
    if "ray" in code:
        ray = pytest.importorskip("ray")
        try:
            exec(compile(code, f"README.md python block {index}", "exec"), {})
        finally:
            ray.shutdown()
    else:
        exec(compile(code, f"README.md python block {index}", "exec"), {})
