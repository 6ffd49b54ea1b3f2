// Copies 128x128 tiles through shared memory (a staging step of a larger pipeline).
#define TILE 128

__global__ void stage_tiles(const float* __restrict__ in, float* __restrict__ out, int n_tiles) {
    __shared__ float tile[TILE][TILE];
    const float* src = in + (size_t)blockIdx.x * TILE * TILE;
    float* dst = out + (size_t)blockIdx.x * TILE * TILE;
    if (blockIdx.x >= n_tiles) return;
    for (int k = threadIdx.x; k < TILE * TILE; k += blockDim.x) tile[k / TILE][k % TILE] = src[k];
    __syncthreads();
    for (int k = threadIdx.x; k < TILE * TILE; k += blockDim.x) dst[k] = tile[k % TILE][k / TILE];
}

void stage_tiles_launch(const float* in, float* out, int n_tiles) {
    stage_tiles<<<n_tiles, 256>>>(in, out, n_tiles);
}
