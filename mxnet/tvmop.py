"""TVM-generated operators (``mx.tvmop``). MXNet 1.9.1 loads them only when built with
``USE_TVM_OP=1``; this implementation has none (``mx.runtime.Features()`` reports
``TVM_OP`` false), so, as in such a 1.9.1 build, importing this module does nothing."""
