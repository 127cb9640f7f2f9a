"""The package type-checks against its own stubs (mypy, where installed)."""

import os

import pytest

import multiexp


def test_the_package_type_checks():
    api = pytest.importorskip("mypy.api")
    package = os.path.dirname(multiexp.__file__)
    assert os.path.exists(os.path.join(package, "_native.pyi"))
    assert os.path.exists(os.path.join(package, "py.typed"))
    out, err, status = api.run(["-p", "multiexp", "--ignore-missing-imports", "--no-incremental"])
    assert status == 0, out + err
