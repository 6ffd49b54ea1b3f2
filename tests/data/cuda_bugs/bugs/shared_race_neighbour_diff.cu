// Forward differences d[i] = x[i + 1] - x[i] through a shared tile of blockDim.x + 1 values.
__global__ void forward_diff(const float* __restrict__ x, float* __restrict__ d, int n) {
    extern __shared__ float buf[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = (i < n) ? x[i] : 0.0f;
    if (threadIdx.x == blockDim.x - 1) buf[blockDim.x] = (i + 1 < n) ? x[i + 1] : 0.0f;
    float right = buf[threadIdx.x + 1];
    if (i + 1 < n) d[i] = right - buf[threadIdx.x];
}

void forward_diff_launch(const float* x, float* d, int n) {
    int threads = 256;
    forward_diff<<<(n + threads - 1) / threads, threads, (threads + 1) * sizeof(float)>>>(x, d, n);
}
