"""Thread-local switches read by every layer: is autograd recording, is it training."""
import threading


class _Mode(threading.local):
    recording = False
    training = False
    # during backward: which inputs of the node being differentiated need a gradient
    # (gradient rules may skip the others, e.g. a convolution's data gradient)
    need_grad = None


mode = _Mode()
