# A Python program that plays the CUDA driver's part for cuprobe trace's tests, like
# inject_host: it loads $CUDA_INJECTION64_PATH and calls InitializeInjection as cuInit
# does, then makes "runtime calls" through the fake libcupti's fake_cupti_call.
#   inject_py.py gil N      N times step(), the calls made holding the GIL (ctypes.PyDLL),
#                           as PyTorch's .item() does: the frame API names step()
#   inject_py.py nogil N    the same with the GIL released (ctypes.CDLL): no Python names
import ctypes
import os
import sys


def main():
    mode, n = sys.argv[1], int(sys.argv[2])
    if ctypes.CDLL(os.environ["CUDA_INJECTION64_PATH"]).InitializeInjection() != 1:
        sys.exit("inject_py: InitializeInjection failed")
    path = os.environ["CUPROBE_CUPTI"]
    fake = ctypes.PyDLL(path) if mode == "gil" else ctypes.CDLL(path)   # the library's own copy

    def step():
        fake.fake_cupti_call(2)
        fake.fake_cupti_call(1)

    for _ in range(n):
        step()


main()
