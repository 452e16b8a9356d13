"""Write ONNX files made by PyTorch's exporter, with PyTorch's outputs, for tests/test_onnx.

Unlike the other generators this one runs under an interpreter that has torch (not the
MXNet reference venv): ``python tools/golden/gen_onnx_torch.py``. It writes
tests/golden/onnx_torch_<name>.onnx and tests/golden/onnx_torch.npz (inputs and
PyTorch's outputs, keyed <name>_x / <name>_y).
"""
import io
import os

import numpy as np
import torch
from torch import nn

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "golden")


class SimpleCNN(nn.Module):
    """Conv/BatchNormalization/Relu/MaxPool/GlobalAveragePool/Flatten/Gemm/Add/Concat/Softmax."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.pool = nn.MaxPool2d(2)
        self.conv2a = nn.Conv2d(8, 8, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(8)
        self.conv2b = nn.Conv2d(8, 4, 1)
        self.conv3 = nn.Conv2d(12, 16, 3, stride=2, padding=1, groups=4)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = self.pool(torch.relu(self.bn1(self.conv1(x))))
        y = torch.relu(self.bn2(self.conv2a(x))) + x
        x = torch.cat([y, self.conv2b(x)], dim=1)
        x = torch.relu(self.conv3(x))
        x = nn.functional.adaptive_avg_pool2d(x, 1)
        x = torch.flatten(x, 1)
        return torch.softmax(self.fc(x), dim=1)


class MiscCNN(nn.Module):
    """view(size(0), -1) shape arithmetic, AvgPool(ceil_mode), LeakyReLU, PReLU, Sigmoid,
    nearest Upsample, ConvTranspose, Dropout, Clip (ReLU6), LogSoftmax."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 6, 3)
        self.prelu = nn.PReLU(6)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.deconv = nn.ConvTranspose2d(6, 4, 2, stride=2)
        self.pool = nn.AvgPool2d(3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)
        self.drop = nn.Dropout(0.3)
        self.fc = nn.Linear(4 * 13 * 13, 5)

    def forward(self, x):
        x = self.prelu(self.conv(x))
        x = nn.functional.leaky_relu(x, 0.1)
        x = torch.sigmoid(self.deconv(x)) * nn.functional.relu6(self.up(x)[:, :4] * 3.0)
        x = self.pool(x)
        x = self.drop(x.view(x.size(0), -1))
        return torch.log_softmax(self.fc(x), dim=-1)


def export(model, x, opset, fold):
    model.eval()
    buf = io.BytesIO()
    # without constant folding (and in PRESERVE mode) the exporter keeps BatchNormalization
    # nodes and the Shape/Gather/Concat arithmetic of view(x.size(0), -1)
    mode = torch.onnx.TrainingMode.EVAL if fold else torch.onnx.TrainingMode.PRESERVE
    torch.onnx.export(model, (x,), buf, input_names=["input"], output_names=["output"],
                      opset_version=opset, dynamo=False, do_constant_folding=fold, training=mode)
    with torch.no_grad():
        y = model(x).numpy()
    return buf.getvalue(), y


def main():
    torch.manual_seed(0)
    arrays = {}
    for name, model, shape, opset, fold in [
            ("cnn", SimpleCNN(), (2, 3, 16, 16), 13, False),
            ("cnn_folded_opset11", SimpleCNN(), (2, 3, 16, 16), 11, True),
            ("misc", MiscCNN(), (2, 3, 14, 14), 13, False)]:
        for m in model.modules():  # non-trivial running statistics
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 1.5)
        x = torch.randn(*shape)
        data, y = export(model, x, opset, fold)
        with open(os.path.join(OUT, f"onnx_torch_{name}.onnx"), "wb") as f:
            f.write(data)
        arrays[f"{name}_x"] = x.numpy()
        arrays[f"{name}_y"] = y
    np.savez_compressed(os.path.join(OUT, "onnx_torch.npz"), **arrays)


if __name__ == "__main__":
    main()
