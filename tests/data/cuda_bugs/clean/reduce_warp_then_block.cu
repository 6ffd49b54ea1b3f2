// Sum of n floats: grid-stride accumulation, warp shuffles, one shared slot per warp.
__device__ __forceinline__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffff, v, offset);
    return v;
}

__global__ void reduce_sum(const float* __restrict__ x, float* __restrict__ out, int n) {
    __shared__ float warp_sums[32];
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += x[i];
    v = warp_sum(v);
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = (lane < (blockDim.x >> 5)) ? warp_sums[lane] : 0.0f;
        v = warp_sum(v);
        if (lane == 0) atomicAdd(out, v);
    }
}

void reduce_sum_launch(const float* x, float* out, int n, cudaStream_t stream) {
    reduce_sum<<<264, 512, 0, stream>>>(x, out, n);
}
