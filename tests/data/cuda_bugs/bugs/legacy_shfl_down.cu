// Block-wide max with warp shuffles, written for Kepler.
__device__ float warp_max(float v) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        v = fmaxf(v, __shfl_down(v, offset));
    }
    return v;
}

__global__ void block_max(const float* __restrict__ x, float* __restrict__ out, int n) {
    __shared__ float warp_results[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? x[i] : -INFINITY;
    v = warp_max(v);
    if ((threadIdx.x & 31) == 0) warp_results[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = (threadIdx.x < blockDim.x / 32) ? warp_results[threadIdx.x] : -INFINITY;
        v = warp_max(v);
        if (threadIdx.x == 0) out[blockIdx.x] = v;
    }
}
