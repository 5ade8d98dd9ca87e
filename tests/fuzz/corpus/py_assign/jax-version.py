_version: str = "0.11.2"
_cached_version = None
