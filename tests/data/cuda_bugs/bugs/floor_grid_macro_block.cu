#define BLOCK_SIZE 128

// Squares n floats in place.
__global__ void square_inplace(float* __restrict__ x, int n) {
    int i = blockIdx.x * BLOCK_SIZE + threadIdx.x;
    if (i < n) x[i] = x[i] * x[i];
}

void square_inplace_launch(float* x, int n) {
    square_inplace<<<n / BLOCK_SIZE, BLOCK_SIZE>>>(x, n);
}
