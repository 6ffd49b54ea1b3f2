// Elementwise product of two rows x cols matrices with a 2D grid.
__global__ void hadamard(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                         int rows, int cols) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) c[row * cols + col] = a[row * cols + col] * b[row * cols + col];
}

void hadamard_launch(const float* a, const float* b, float* c, int rows, int cols) {
    dim3 block(32, 64);
    dim3 grid((cols + 31) / 32, (rows + 63) / 64);
    hadamard<<<grid, block>>>(a, b, c, rows, cols);
}
