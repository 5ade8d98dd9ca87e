#!/usr/bin/env python3
"""A stand-in kubelet for tests/exporter.sh: gRPC's own server (Debian's
python3-grpcio) answering /v1.PodResourcesLister/List on a unix socket with
hand-encoded protobuf bytes (no generated code).

Usage: podres_server.py SOCKET MODE
  ok       two pods: GPU 1 of the fake 2-GPU scenarios held by ml/trainer-0's
           container pytorch, a time-sliced replica ("::1") of GPU 0 by
           serving/infer-7's container server, and resources that are not GPUs
  garbage  a gRPC message that is not a ListPodResourcesResponse
  denied   gRPC status PERMISSION_DENIED
  hang     accepts the call and never answers it
  silent   a plain socket that accepts and never says a word (not HTTP/2)
Prints "ready" once it listens.
"""
import socket
import sys
import time

GPU0 = "GPU-2a36941f-b41a-b60b-0006-61ebcd2ec0aa"
GPU1 = "GPU-02ece098-d9c9-7d14-2642-3f6aff79accd"


def varint(n):
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def field(num, payload):
    if isinstance(payload, str):
        payload = payload.encode()
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def devices(resource, *ids):
    return field(1, resource) + b"".join(field(2, i) for i in ids)


def container(name, *devs):
    # cpu_ids (field 3, packed int64) as the kubelet sends them
    return field(1, name) + b"".join(field(2, d) for d in devs) + field(3, varint(4) + varint(5))


def pod(name, ns, *containers):
    return field(1, name) + field(2, ns) + b"".join(field(3, c) for c in containers)


def answer():
    return (
        field(1, pod("trainer-0", "ml",
                     container("sidecar", devices("example.com/nic", "nic-3")),
                     container("pytorch", devices("nvidia.com/gpu", GPU1)))) +
        field(1, pod("infer-7", "serving",
                     container("server", devices("nvidia.com/gpu", GPU0 + "::1")))) +
        field(1, pod("web-1", "default", container("nginx")))
    )


def main():
    path, mode = sys.argv[1], sys.argv[2]
    if mode == "silent":
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(path)
        s.listen(8)
        print("ready", flush=True)
        held = []
        while True:
            c, _ = s.accept()
            held.append(c)   # never read, never written, never closed
    import grpc
    from concurrent import futures

    def list_call(request, context):
        if mode == "garbage":
            return b"\xff\xff\xff\xff"
        if mode == "denied":
            context.abort(grpc.StatusCode.PERMISSION_DENIED, "not for you")
        if mode == "hang":
            time.sleep(3600)
        return answer()

    handler = grpc.method_handlers_generic_handler(
        "v1.PodResourcesLister",
        {"List": grpc.unary_unary_rpc_method_handler(list_call)})
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    server.add_generic_rpc_handlers((handler,))
    server.add_insecure_port("unix:" + path)
    server.start()
    print("ready", flush=True)
    server.wait_for_termination()


if __name__ == "__main__":
    main()
