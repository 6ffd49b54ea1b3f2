// Sum of squares of each chunk of tiles * 256 floats (one block per chunk, 256 threads).
__global__ void chunk_sumsq(const float* __restrict__ x, float* __restrict__ out, int tiles) {
    __shared__ float tile[256];
    float acc = 0.0f;
    for (int i = 0; i < tiles; ++i) {
        tile[threadIdx.x] = x[((size_t)blockIdx.x * tiles + i) * 256 + threadIdx.x];
        __syncthreads();
        if (threadIdx.x < 32) {  // warp 0 does the arithmetic
            for (int i = threadIdx.x; i < 256; i += 32) acc += tile[i] * tile[i];
        }
        __syncthreads();
    }
    if (threadIdx.x < 32) {  // the whole of warp 0, so the full mask is right
        for (int offset = 16; offset > 0; offset >>= 1) acc += __shfl_xor_sync(0xffffffff, acc, offset);
        if (threadIdx.x == 0) out[blockIdx.x] = acc;
    }
}

void chunk_sumsq_launch(const float* x, float* out, int chunks, int tiles) {
    chunk_sumsq<<<chunks, 256>>>(x, out, tiles);
}
