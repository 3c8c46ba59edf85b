"""Offline pipeline: builds feedback tables and decision trees into artifacts/."""
from pipeline.cleanup import end_with_parent as _end_with_parent

_end_with_parent()  # in a joblib worker (importing this to run its task): die with the parent
