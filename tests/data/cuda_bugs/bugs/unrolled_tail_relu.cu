// relu over n floats, four elements per thread per iteration.
__global__ void relu_unrolled(const float* __restrict__ x, float* __restrict__ y, int n) {
    int stride = 4 * gridDim.x * blockDim.x;
    for (int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x); i < n; i += stride) {
        y[i] = fmaxf(x[i], 0.0f);
        y[i + 1] = fmaxf(x[i + 1], 0.0f);
        y[i + 2] = fmaxf(x[i + 2], 0.0f);
        y[i + 3] = fmaxf(x[i + 3], 0.0f);
    }
}

void relu_unrolled_launch(const float* x, float* y, int n) {
    int threads = 256;
    int blocks = (n + 4 * threads - 1) / (4 * threads);
    relu_unrolled<<<blocks, threads>>>(x, y, n);
}
