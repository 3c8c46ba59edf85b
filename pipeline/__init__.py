"""Offline pipeline: builds feedback tables and decision trees into artifacts/."""
