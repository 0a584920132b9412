#include <cstdlib>
#include <cstring>
#include <exception>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "decode.h"

static void say(char *err, int errlen, const char *what) {
	if (errlen <= 0) {
		return;
	}
	std::strncpy(err, what, errlen - 1);
	err[errlen - 1] = 0;
}

int comptoir_imdecode(const unsigned char *buf, int n, int *rows, int *cols, unsigned char **pix, char *err, int errlen) {
	*pix = 0;
	try {
		cv::Mat raw(1, n, CV_8UC1, const_cast<unsigned char *>(buf));
		cv::Mat m = cv::imdecode(raw, cv::IMREAD_COLOR);
		if (m.empty() || m.type() != CV_8UC3) {
			return 1;
		}
		if (!m.isContinuous()) {
			m = m.clone();
		}
		size_t size = m.total() * m.elemSize();
		*pix = static_cast<unsigned char *>(std::malloc(size));
		if (*pix == 0) {
			return 3;
		}
		std::memcpy(*pix, m.data, size);
		*rows = m.rows;
		*cols = m.cols;
		return 0;
	} catch (const std::exception &e) {
		say(err, errlen, e.what());
	} catch (...) {
		say(err, errlen, "unknown exception");
	}
	return 2;
}
