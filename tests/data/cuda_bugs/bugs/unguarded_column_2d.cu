// out = in^T for a rows x cols matrix, one thread per element, 2D grid rounded up on both axes.
__global__ void naive_transpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows) {
        out[col * rows + row] = in[row * cols + col];
    }
}

void naive_transpose_launch(const float* in, float* out, int rows, int cols) {
    dim3 block(32, 8);
    dim3 grid((cols + 31) / 32, (rows + 7) / 8);
    naive_transpose<<<grid, block>>>(in, out, rows, cols);
}
