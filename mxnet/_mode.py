"""Thread-local switches read by every layer: is autograd recording, is it training."""
import threading


class _Mode(threading.local):
    recording = False
    training = False


mode = _Mode()
