"""mx.profiler: the Chrome trace, the aggregate table, pause/resume and the user objects."""
import json
import os
import threading
import warnings

import pytest

import mxnet as mx
from mxnet import profiler
from mxnet.base import MXNetError
from mxnet.ndarray import ndarray as ndmod


@pytest.fixture(autouse=True)
def fresh_profiler(monkeypatch):
    """Each test starts from a never-configured profiler and leaves the dispatcher unhooked."""
    monkeypatch.setattr(profiler, "_P", profiler._State())
    profiler._apply()
    yield
    profiler._P.running = False
    profiler._apply()
    assert ndmod._prof_hook is None


def _ctx():
    return mx.test_utils.default_context()


def _device_process():
    c = _ctx()
    return f"{c.device_type}/{c.device_id}"


def _run_ops(n_add=1):
    ctx = _ctx()
    a = mx.nd.ones((4, 4), ctx=ctx)
    b = a
    for _ in range(n_add):
        b = b + a
    c = mx.nd.exp(b)
    d = mx.nd.dot(c, c)
    d.wait_to_read()
    return d


def _trace(path):
    with open(path) as f:
        doc = json.load(f)
    assert set(doc) >= {"traceEvents"}
    return doc["traceEvents"]


def _profile(tmp_path, body, **config):
    path = str(tmp_path / "trace.json")
    profiler.set_config(filename=path, **config)
    profiler.set_state("run")
    body()
    profiler.set_state("stop")
    profiler.dump()
    return _trace(path)


def _table_rows(text, section):
    """{name: count} of one section of the dumps() table."""
    lines = text.split("\n")
    i = lines.index(section)
    assert lines[i + 1] == "================="
    rows = {}
    for line in lines[i + 4:]:
        if not line:
            break
        name, count = line.rsplit(None, 5)[:2]
        rows[name] = int(count)
    return rows


def test_operators_traced(tmp_path):
    events = _profile(tmp_path, lambda: _run_ops(2), profile_all=True)
    ops = [e for e in events if e.get("cat") == "operator"]
    # as in 1.9.1's traces, an operator is a begin record followed by its end record
    begins, ends = ops[0::2], ops[1::2]
    assert len(begins) == len(ends) > 0
    assert all(b["ph"] == "B" for b in begins) and all(e["ph"] == "E" for e in ends)
    names = [e["name"] for e in begins]
    assert names == [e["name"] for e in ends]
    assert names.count("broadcast_add") == 2
    assert "exp" in names and "dot" in names
    meta = {e["pid"]: e["args"]["name"] for e in events
            if e["ph"] == "M" and e["name"] == "process_name"}
    for b, e in zip(begins, ends):
        assert e["ts"] >= b["ts"] >= 0
        assert isinstance(e["pid"], int) and isinstance(e["tid"], int)
        assert meta[e["pid"]] == _device_process()
    threads = {e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    assert threading.current_thread().name in threads
    # events are in time order and every event names a described process
    stamps = [e["ts"] for e in events if e["ph"] != "M"]
    assert stamps == sorted(stamps)
    assert all(e["pid"] in meta for e in events)


def test_executor_inference_steps_traced(tmp_path):
    # a predict-mode executor forward (Module.predict / score) shows its operators, as in 1.9.1
    y = mx.sym.relu(mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=4, name="fc"))
    ex = y.simple_bind(mx.cpu(), data=(2, 3))

    def run():
        ex.forward(is_train=False, data=mx.nd.ones((2, 3)))
        ex.outputs[0].wait_to_read()
    names = [e["name"] for e in _profile(tmp_path, run, profile_all=True)
             if e.get("cat") == "operator" and e["ph"] == "B"]
    assert names.count("FullyConnected") == 1 and names.count("relu") == 1


def test_aggregate_table_and_json(tmp_path):
    _profile(tmp_path, lambda: _run_ops(3), aggregate_stats=True)
    text = profiler.dumps()
    assert text.startswith("\nProfile Statistics:\n\tNote the difference in units")
    rows = _table_rows(text, "operator")
    assert rows["broadcast_add"] == 3
    assert rows["exp"] == 1 and rows["dot"] == 1
    lines = text.split("\n")
    i = lines.index("operator")
    assert lines[i + 2] == ("Name                          Total Count        Time (ms)    "
                            "Min Time (ms)    Max Time (ms)    Avg Time (ms)")
    row = next(ln for ln in lines[i + 4:] if ln.startswith("broadcast_add "))
    assert len(row) == 109  # name in 25, count in 16, four times in 17 columns
    total, lo, hi, avg = map(float, row.split()[2:])
    assert 0 <= lo <= avg <= hi <= total

    doc = json.loads(profiler.dumps(format="json"))
    assert doc["Unit"] == {"Time": "ms", "Memory": "kB"}
    add = doc["Time"]["operator"]["broadcast_add"]
    assert add["Count"] == 3 and add["Min"] <= add["Max"]

    by_count = _table_rows(profiler.dumps(sort_by="count"), "operator")
    assert list(by_count)[0] == "broadcast_add"
    asc = _table_rows(profiler.dumps(sort_by="count", ascending=True), "operator")
    assert list(asc)[-1] == "broadcast_add"

    profiler.dumps(reset=True)
    assert "operator" not in profiler.dumps().split("\n")


def test_dumps_arguments_and_disabled_stats(tmp_path):
    _profile(tmp_path, _run_ops)  # aggregate_stats defaults to False
    assert profiler.dumps() == ""
    with pytest.raises(MXNetError):
        profiler.dumps(format="xml")
    with pytest.raises(MXNetError):
        profiler.dumps(sort_by="name")


def test_pause_resume_excludes_ops(tmp_path):
    ctx = _ctx()

    def body():
        a = mx.nd.ones((2, 2), ctx=ctx)
        profiler.pause()
        assert profiler.state == "run"
        mx.nd.sin(a)
        profiler.resume()
        mx.nd.cos(a)

    names = [e["name"] for e in _profile(tmp_path, body, aggregate_stats=True)]
    assert "cos" in names and "sin" not in names
    rows = _table_rows(profiler.dumps(), "operator")
    assert "cos" in rows and "sin" not in rows


def test_off_records_nothing(tmp_path):
    assert profiler.state == "stop" and profiler.get_state() == "stop"
    _run_ops()
    assert ndmod._prof_hook is None
    assert profiler._P.events == []
    with pytest.raises(MXNetError):  # never ran: nothing to dump
        profiler.dump()
    # configured but stopped: still nothing, and stopping removes the hook again
    path = str(tmp_path / "t.json")
    profiler.set_config(filename=path, aggregate_stats=True)
    profiler.set_state("run")
    assert profiler.state == "run" and ndmod._prof_hook is not None
    profiler.set_state("stop")
    assert ndmod._prof_hook is None
    _run_ops()
    profiler.dump()
    assert [e for e in _trace(path) if e.get("cat") == "operator"] == []
    assert "operator" not in profiler.dumps().split("\n")


def test_user_objects(tmp_path):
    def body():
        dom = profiler.Domain("mydom")
        assert str(dom) == "mydom"
        task = dom.new_task("mytask")
        task.start()
        task.stop()
        frame = profiler.Frame(dom, "myframe")
        frame.start()
        frame.stop()
        with profiler.Event("myevent"):
            pass
        ctr = profiler.Counter(dom, "mycounter", 5)
        ctr.set_value(7)
        ctr += 3
        ctr -= 1
        ctr.increment(2)
        ctr.decrement()
        marker = dom.new_marker("mymarker")
        marker.mark()
        marker.mark("thread")
        marker.mark("global")
        with pytest.raises(MXNetError):
            marker.mark("bogus")

    events = _profile(tmp_path, body, aggregate_stats=True)
    by_name = {}
    for e in events:
        if e["ph"] != "M":
            by_name.setdefault(e["name"], []).append(e)
    assert [(e["ph"], e["cat"]) for e in by_name["mytask"]] == [("b", "mydom"), ("e", "mydom")]
    assert by_name["mytask"][0]["id"] == by_name["mytask"][1]["id"]
    assert [(e["ph"], e["cat"]) for e in by_name["myframe"]] == [("(", "mydom,frame"),
                                                                  (")", "mydom,frame")]
    assert [(e["ph"], e["cat"]) for e in by_name["myevent"]] == [("B", "event"), ("E", "event")]
    assert by_name["myevent"][0]["ts"] <= by_name["myevent"][1]["ts"]
    ctr = by_name["mycounter"]
    assert {(e["ph"], e["cat"]) for e in ctr} == {("C", "mydom")}
    assert [e["args"]["mycounter"] for e in ctr] == [5, 7, 10, 9, 11, 10]
    marks = by_name["mymarker"]
    assert {(e["ph"], e["cat"]) for e in marks} == {("n", "mydom,instant_marker")}
    assert [e["s"] for e in marks] == ["p", "t", "g"]

    text = profiler.dumps()
    assert _table_rows(text, "event") == {"myevent": 1}
    assert _table_rows(text, "mydom") == {"mycounter": 6, "mytask": 1}
    assert _table_rows(text, "mydom,frame") == {"myframe": 1}
    assert _table_rows(text, "mydom,instant_marker") == {}


def test_user_objects_outside_run_are_ignored(tmp_path):
    dom = profiler.Domain("d")
    ev = profiler.Event("early")
    ev.start()  # before the profiler runs
    ctr = profiler.Counter(dom, "c", 1)
    ctr += 1
    assert ctr.value == 2
    profiler.Task(dom, "never-started").stop()  # stopping without a start is harmless
    events = _profile(tmp_path, ev.stop)
    assert [e for e in events if e["ph"] != "M"] == []


def test_dump_finished_and_atomic(tmp_path):
    path = str(tmp_path / "p.json")
    profiler.set_config(filename=path)
    profiler.set_state("run")
    mx.nd.ones((2, 2), ctx=_ctx()).wait_to_read()
    profiler.dump(finished=False)
    first = [e["name"] for e in _trace(path) if e.get("cat") == "operator" and e["ph"] == "B"]
    mx.nd.zeros((2, 2), ctx=_ctx()).wait_to_read()
    profiler.set_state("stop")
    profiler.dump()  # rewrites with everything, then starts afresh
    second = [e["name"] for e in _trace(path) if e.get("cat") == "operator" and e["ph"] == "B"]
    assert first == ["_ones"] and second == ["_ones", "_zeros"]
    assert profiler._P.events == []
    assert os.listdir(tmp_path) == ["p.json"]  # no temporary file left behind


def test_threads_get_their_own_tid(tmp_path):
    def work():
        mx.nd.exp(mx.nd.ones((2, 2), ctx=_ctx())).wait_to_read()

    def body():
        work()
        t = threading.Thread(target=work, name="side-thread")
        t.start()
        t.join()

    events = _profile(tmp_path, body)
    tids = {e["tid"] for e in events if e.get("name") == "exp"}
    assert len(tids) == 2
    names = {e["args"]["name"] for e in events if e["name"] == "thread_name"}
    assert "side-thread" in names


def test_autograd_backward_ops_traced(tmp_path):
    def body():
        x = mx.nd.ones((3,), ctx=_ctx())
        x.attach_grad()
        with mx.autograd.record():
            y = (x * x).sum()
        y.backward()
        x.grad.wait_to_read()

    names = {e["name"] for e in _profile(tmp_path, body) if e.get("cat") == "operator"}
    assert "elemwise_mul" in names or "broadcast_mul" in names or "_mul" in names
    assert "sum" in names


def test_memory_counter(tmp_path):
    events = _profile(tmp_path, _run_ops, profile_memory=True)
    mem = [e for e in events if e.get("cat") == "Device Storage"]
    assert mem and all(e["ph"] == "C" for e in mem)
    key = f"Memory: {_device_process()}"
    assert all(e["name"] == key and e["args"][key] >= 0 for e in mem)
    assert max(e["args"][key] for e in mem) >= 4 * 4 * 4


def test_config_validation_and_legacy(tmp_path):
    with pytest.raises(MXNetError):
        profiler.set_config(bogus=1)
    with pytest.raises(MXNetError):
        profiler.set_config(profile_all="maybe")
    with pytest.raises(MXNetError):
        profiler.set_config(dump_period="soon")
    with pytest.raises(MXNetError):
        profiler.set_state("go")
    profiler.set_config(profile_all="True", continuous_dump=False, dump_period=2,
                        contiguous_dump="0", profile_process="worker")
    assert profiler._P.config["profile_all"] is True
    assert profiler._P.config["dump_period"] == 2.0
    path = str(tmp_path / "legacy.json")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        profiler.profiler_set_config(mode="all", filename=path)
        profiler.profiler_set_state("run")
        mx.nd.ones((2,), ctx=_ctx()).wait_to_read()
        profiler.profiler_set_state("stop")
        profiler.dump_profile()
    assert sum("deprecated" in str(w.message) for w in caught) == 4
    assert any(e["name"] == "_ones" for e in _trace(path))
