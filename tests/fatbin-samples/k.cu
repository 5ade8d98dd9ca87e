// A tiny kernel for tests/fatbin-samples: the code itself does not matter,
// only which SASS and PTX entries nvcc puts into the fatbin.
__global__ void cp_sample_add(float *y, const float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}
