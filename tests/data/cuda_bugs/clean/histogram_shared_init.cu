// 256-bin histogram of bytes: per-block shared bins, then one atomic per bin into global memory.
__global__ void histogram256(const unsigned char* __restrict__ data, unsigned int* __restrict__ hist, size_t n) {
    __shared__ unsigned int bins[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) bins[b] = 0;
    __syncthreads();
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x) {
        atomicAdd(&bins[data[i]], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x) {
        if (bins[b]) atomicAdd(&hist[b], bins[b]);
    }
}

void histogram256_launch(const unsigned char* data, unsigned int* hist, size_t n, int sm_count) {
    histogram256<<<sm_count * 4, 256>>>(data, hist, n);
}
