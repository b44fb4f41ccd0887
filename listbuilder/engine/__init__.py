"""The rules engine: plain Python, importable without any web or PDF library."""
