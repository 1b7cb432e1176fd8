"""Errors raised by the card detector."""


class ImageError(ValueError):
    """The input is not an image the detector can read (missing, empty, corrupt, too big...)."""
