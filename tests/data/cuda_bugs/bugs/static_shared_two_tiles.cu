// C = A * B with 64x128 and 128x64 shared tiles (k-step 128), 256 threads computing 64x64 outputs.
#define BM 64
#define BN 64
#define BK 128

__global__ void gemm_big_tiles(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                               int M, int N, int K) {
    __shared__ float As[BM][BK];
    __shared__ float Bs[BK][BN];
    int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int idx = threadIdx.x; idx < BM * BK; idx += blockDim.x) {
            int r = idx / BK, c = idx % BK;
            int gr = blockIdx.y * BM + r, gc = k0 + c;
            As[r][c] = (gr < M && gc < K) ? A[(size_t)gr * K + gc] : 0.0f;
        }
        for (int idx = threadIdx.x; idx < BK * BN; idx += blockDim.x) {
            int r = idx / BN, c = idx % BN;
            int gr = k0 + r, gc = blockIdx.x * BN + c;
            Bs[r][c] = (gr < K && gc < N) ? B[(size_t)gr * N + gc] : 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k)
            for (int i = 0; i < 4; ++i)
                for (int j = 0; j < 4; ++j) acc[i][j] += As[ty * 4 + i][k] * Bs[k][tx * 4 + j];
        __syncthreads();
    }
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            int r = blockIdx.y * BM + ty * 4 + i, c = blockIdx.x * BN + tx * 4 + j;
            if (r < M && c < N) C[(size_t)r * N + c] = acc[i][j];
        }
}
