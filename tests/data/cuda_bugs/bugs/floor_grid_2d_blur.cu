// 3x3 box blur of a width x height single-channel image.
__global__ void box_blur(const float* __restrict__ img, float* __restrict__ out, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    float acc = 0.0f;
    int count = 0;
    for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
            int xx = x + dx, yy = y + dy;
            if (xx >= 0 && xx < width && yy >= 0 && yy < height) {
                acc += img[yy * width + xx];
                ++count;
            }
        }
    }
    out[y * width + x] = acc / count;
}

void box_blur_launch(const float* img, float* out, int width, int height) {
    dim3 block(16, 16);
    dim3 grid(width / 16, height / 16);
    box_blur<<<grid, block>>>(img, out, width, height);
}
