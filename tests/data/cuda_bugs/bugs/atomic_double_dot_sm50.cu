// Dot product accumulated in double: each block reduces in shared memory, thread 0 adds atomically.
__global__ void dot_double(const float* __restrict__ a, const float* __restrict__ b, double* __restrict__ result,
                           int n) {
    __shared__ double cache[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double v = 0.0;
    for (; i < n; i += blockDim.x * gridDim.x) v += (double)a[i] * (double)b[i];
    cache[threadIdx.x] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(result, cache[0]);
}

void dot_double_launch(const float* a, const float* b, double* result, int n) {
    dot_double<<<128, 256>>>(a, b, result, n);
}
