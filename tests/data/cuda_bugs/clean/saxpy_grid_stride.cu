// y = a * x + y over n elements with a grid-stride loop (any grid size covers any n).
__global__ void saxpy(size_t n, float a, const float* __restrict__ x, float* __restrict__ y) {
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x) {
        y[i] = a * x[i] + y[i];
    }
}

void saxpy_launch(size_t n, float a, const float* x, float* y, cudaStream_t stream) {
    int threads = 256;
    int blocks = (int)((n + threads - 1) / threads < 4096 ? (n + threads - 1) / threads : 4096);
    saxpy<<<blocks, threads, 0, stream>>>(n, a, x, y);
}
