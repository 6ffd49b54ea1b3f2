// Column sums of an n1 x n2 row-major matrix: one block covers 32 columns, its rows
// stride over n1 and the partial sums meet in shared memory.
#define COLS 32
#define ROWS 8

__global__ void column_sum(const float* __restrict__ x, float* __restrict__ out, int n1, int n2) {
    __shared__ float partial[ROWS][COLS + 1];
    int i2 = blockIdx.x * COLS + threadIdx.x;
    float acc = 0.0f;
    if (i2 < n2) {
        for (int i1 = threadIdx.y; i1 < n1; i1 += ROWS) {
            acc += x[(size_t)i1 * n2 + i2];
        }
        partial[threadIdx.y][threadIdx.x] = acc;
        __syncthreads();
        if (threadIdx.y == 0) {
            float total = 0.0f;
            for (int r = 0; r < ROWS; ++r) total += partial[r][threadIdx.x];
            out[i2] = total;
        }
    }
}

void column_sum_launch(const float* x, float* out, int n1, int n2, cudaStream_t stream) {
    dim3 block(COLS, ROWS);
    dim3 grid((n2 + COLS - 1) / COLS);
    column_sum<<<grid, block, 0, stream>>>(x, out, n1, n2);
}
