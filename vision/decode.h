#ifdef __cplusplus
extern "C" {
#endif

// comptoir_imdecode decodes an image file's n bytes buf (JPEG, PNG,
// BMP...) as cv::imdecode(IMREAD_COLOR) does, inside a try: OpenCV
// throws for some files (a header announcing a picture too large), and
// an exception out of C++ would end the process. It returns 0 and sets
// *rows, *cols and *pix (rows*cols*3 bytes of BGR, from malloc: the
// caller frees it); 1 when OpenCV does not decode the bytes; 2 when
// OpenCV threw, its message in err (errlen bytes at most, ended by 0);
// 3 when the pixels could not be allocated.
int comptoir_imdecode(const unsigned char *buf, int n, int *rows, int *cols, unsigned char **pix, char *err, int errlen);

#ifdef __cplusplus
}
#endif
