import os
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("ci", max_examples=200, deadline=None)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# Data shared beside the checkout (the specification's conformance cases): <checkout>/../shared
SHARED = Path(__file__).resolve().parent.parent.parent / "shared"


def in_ci() -> bool:
    """Whether the tests run in CI (the environment variable CI is `true`, as CI services set it)."""
    return os.environ.get("CI", "").strip().lower() == "true"


def shared_folder(*parts: str) -> Path:
    """Return the folder `../shared/<parts>` beside the checkout. When it is missing the calling test
    is skipped with a reason naming the folder, or fails when CI is `true` (CI must run those tests)."""
    folder = SHARED.joinpath(*parts)
    if not folder.is_dir():
        why = f"{folder} is missing (the shared data beside the checkout, ../shared)"
        if in_ci():
            pytest.fail(f"{why}: required when CI=true", pytrace=False)
        pytest.skip(why)
    return folder
