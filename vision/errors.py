"""Errors raised by the card detector."""


class ImageError(ValueError):
    """The input is not an image the detector can read (missing, empty, corrupt, too big...)."""


class UnsupportedFormat(ImageError):
    """An image in a format this installation has no decoder for (HEIC without pillow-heif)."""
