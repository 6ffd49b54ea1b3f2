// Zero-fills a buffer of n floats.
__global__ void fill_zero(float* __restrict__ x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 0.0f;
}

void fill_zero_launch(float* x, int n, cudaStream_t stream) {
    const int threads = 2048;
    fill_zero<<<(n + threads - 1) / threads, threads, 0, stream>>>(x, n);
}
